# Controls' roles and states as the listing says them ("12, button, Add to cart, pressed"), in the
# words the language's screen readers use. A role is named at run time: `role-` and the ARIA role.

role-button = button
role-link = link
role-checkbox = checkbox
role-radio = radio
role-switch = switch
role-tab = tab
role-menuitem = menuitem
role-menuitemcheckbox = menuitemcheckbox
role-menuitemradio = menuitemradio
role-option = option
role-combobox = combobox
role-textbox = textbox
role-searchbox = searchbox
role-slider = slider
role-spinbutton = spinbutton
role-treeitem = treeitem
role-gridcell = gridcell
role-listbox = listbox
state-checked = checked
state-expanded = expanded
state-collapsed = collapsed
state-pressed = pressed
state-selected = selected
state-required = required
state-editable = editable
