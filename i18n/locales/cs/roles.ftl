# Role a stavy ovládacích prvků, jak je říká seznam („12, tlačítko, Do košíku, stisknuto“), slovy,
# která používají české čtečky obrazovky. Role se jmenuje za běhu: `role-` a role ARIA.

role-button = tlačítko
role-link = odkaz
role-checkbox = zaškrtávací pole
role-radio = přepínač
role-switch = spínač
role-tab = záložka
role-menuitem = položka nabídky
role-menuitemcheckbox = zaškrtávací položka nabídky
role-menuitemradio = přepínací položka nabídky
role-option = možnost
role-combobox = rozbalovací seznam
role-textbox = textové pole
role-searchbox = vyhledávací pole
role-slider = posuvník
role-spinbutton = číselník
role-treeitem = položka stromu
role-gridcell = buňka
role-listbox = seznam
state-checked = zaškrtnuto
state-expanded = rozbaleno
state-collapsed = sbaleno
state-pressed = stisknuto
state-selected = vybráno
state-required = povinné
state-editable = upravitelné
