# Controls' roles and states as the listing says them ("12, button, Add to cart, pressed"), in the
# words the language's screen readers use. A role is named at run time: `role-` and the ARIA role.

role-button = button
role-link = link
role-checkbox = check box
role-radio = radio button
role-switch = switch
role-tab = tab
role-menuitem = menu item
role-menuitemcheckbox = check menu item
role-menuitemradio = radio menu item
role-option = option
role-combobox = combo box
role-textbox = text field
role-searchbox = search field
role-slider = slider
role-spinbutton = spin button
role-treeitem = tree item
role-gridcell = cell
role-listbox = list box
state-checked = checked
state-expanded = expanded
state-collapsed = collapsed
state-pressed = pressed
state-selected = selected
state-required = required
state-editable = editable
