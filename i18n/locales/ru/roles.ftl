# Роли и состояния элементов в списке («12, кнопка, В корзину, нажато»), как их называют русские
# программы экранного доступа. Роль выбирается во время работы: `role-` и роль ARIA.

role-button = кнопка
role-link = ссылка
role-checkbox = флажок
role-radio = переключатель
role-switch = выключатель
role-tab = вкладка
role-menuitem = пункт меню
role-menuitemcheckbox = пункт меню с флажком
role-menuitemradio = пункт меню с переключателем
role-option = вариант
role-combobox = поле со списком
role-textbox = поле ввода
role-searchbox = поле поиска
role-slider = ползунок
role-spinbutton = поле со счётчиком
role-treeitem = элемент дерева
role-gridcell = ячейка
role-listbox = список
state-checked = отмечено
state-expanded = развёрнуто
state-collapsed = свёрнуто
state-pressed = нажато
state-selected = выбрано
state-required = обязательное
state-editable = редактируемое
