# What the page tools say: the numbered list, the outcome of each tool, and why one could not run.
# These reach the user in the panel, and the model or an MCP client through the tool's result.

## The numbered list. $title: the page's title; $total: how many controls; $first, $last: this part.

list-empty = No controls found on "{ $title }".
list-whole = { $total ->
    [one] { $total } control on "{ $title }":
   *[other] { $total } controls on "{ $title }":
}
list-page = { $total ->
    [one] { $total } control on "{ $title }", { $first } to { $last }:
   *[other] { $total } controls on "{ $title }", { $first } to { $last }:
}
# One line: $index its number, $role its role (a role- message), $name its name.
list-item = { $index }, { $role }, { $name }
list-item-unnamed = { $index }, { $role }, no name
list-item-value = value { $value }
# $context: the words of the row or item a repeated control stands in ("Delete" on every row).
list-item-context = in "{ $context }"
# What follows a line's name, each in turn: its value, its states ($part).
list-item-more = , { $part }
# $left: how many controls are still to hear.
list-more = Say /more for the next { $left }.
list-no-more = That was the whole list.
list-nothing-to-continue = There is no list to continue: say /list first.
list-unreadable = The page's list could not be read.
# $text: the words searched for; $count: how many controls match.
found-none = No control matches "{ $text }". Say /list to hear them all.
found-heading = { $count ->
    [one] { $count } match for "{ $text }":
   *[other] { $count } matches for "{ $text }":
}

## What was done to a control: $index, $role and $name as in a list's line.

acted-click = Clicked { $index }, { $role }, { $name }.
acted-type = Typed into { $index }, { $role }, { $name }.
# $option: the option chosen.
acted-select = Selected { $option } in { $index }, { $role }, { $name }.
acted-right-click = Right-clicked { $index }, { $role }, { $name }.
acted-hover = Pointer on { $index }, { $role }, { $name }.
# $value: the value the control shows now.
acted-set = Set { $index }, { $role }, { $name } to { $value }.
acted-done = Done.
# $done: what was done, one of the sentences above or a key pressed, said first.
acted-unchanged = { $done } Nothing changed on the page.
acted-leaving = { $done } Another page is loading.
focus-on = Focus on { $index }, { $role }, { $name }.
focus-none = No other control to move to. Say /list for the controls.
tool-described = Described.
tool-looked-for-banners = Looked for banners.
scroll-at-top = Already at the top.
scroll-at-bottom = Already at the bottom: nothing more to scroll.
scroll-up = Scrolled up.
scroll-down = Scrolled down. Say /list for the controls now in view.
scroll-top = Scrolled to the top.
scroll-bottom = Scrolled to the bottom.
# The space bar, as a key pressed.
key-space = Space
# $key: the key pressed.
press-submitted = Pressed { $key }: the form was sent.
press-activated = Pressed { $key }: activated.
press-focus-moved = Pressed { $key }: the focus moved.
press-done = Pressed { $key }.
wait-settled = The page has settled.
wait-still-changing = The page is still changing; Waymark stopped waiting.
picture-taken = Took a picture of the screen.
picture-taken-size = Took a picture of the screen, { $width } by { $height } pixels.
banners-none = No banner to close.
# $buttons: the buttons pressed, joined by "; ".
banners-closed = { $count ->
    [one] Closed a banner: { $buttons }.
   *[other] Closed { $count } banners: { $buttons }.
}
# $files: the files' names, joined by ", "; $index: the field's number.
upload-done = { $count ->
    [one] Put { $count } file into { $index }: { $files }.
   *[other] Put { $count } files into { $index }: { $files }.
}
download-finished = The download finished.
# $name: the file; $size: its size (a size- message).
download-done = Downloaded { $name }, { $size }.
size-bytes = { $count ->
    [one] { $count } byte
   *[other] { $count } bytes
}
size-kb = { $count } KB
# Megabytes to one decimal: $whole and $tenth are its two parts (3 and 4 in 3.4).
size-mb = { $whole }.{ $tenth } MB
read-unreadable = The page could not be read.
read-page = "{ $title }" at { $url }.
read-headings = Headings: { $headings }.
read-text = Text: { $text }

## Tabs and addresses.

tabs-none = No web pages are open in this window.
tabs-heading = { $count ->
    [one] { $count } tab:
   *[other] { $count } tabs:
}
tabs-line = { $index }, { $title }
tabs-current = current
tabs-pinned = pinned
tabs-switched = Switched to tab { $index }, "{ $title }".
tabs-missing = There is no tab { $index }: { $count ->
    [one] there is { $count } tab.
   *[other] there are { $count } tabs.
} Say /tabs to hear them.
# $why: the browser's reason.
tabs-unlisted = Could not list the tabs: { $why }
tabs-switch-failed = Could not switch tabs: { $why }
go-opened = Opened "{ $title }" ({ $url }).
go-went-back = Went back to "{ $title }" ({ $url }).
go-went-forward = Went forward to "{ $title }" ({ $url }).
go-reloaded = Reloaded "{ $title }" ({ $url }).
# $done: one of the four sentences above.
go-then-list = { $done } Say /list for its controls.
go-then-list-loading = { $done } It is still loading. Say /list for its controls.
go-new-tab = Opened a new tab.
go-script-refused = Waymark does not open script or data addresses.
go-failed = The browser did not go there: { $why }
go-new-tab-failed = Could not open a new tab: { $why }
