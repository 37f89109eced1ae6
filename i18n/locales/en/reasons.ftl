# Why a part of the page could not do what was asked, as Waymark's script in the page reports it:
# heard in the panel; the model and MCP clients get it as the tool's error. In every message, $role is
# a control's role as the listing says it ("button"), and $name its name, both from the page.

## The control a number or a question was about, changed since.

reason-gone = The control ({ $role } "{ $name }") is no longer on the page.
reason-unknown = That control is no longer on the page.
reason-changed = The control ({ $role } "{ $name }") now shows something else.
reason-outdated = The control ({ $role } "{ $name }") was on an older list: the page changed a lot since.
reason-focus-moved = The keyboard focus moved to a control since this was asked.
# $index: the number asked for. The fresh list follows these.
number-gone = Number { $index } ({ $role } "{ $name }") is no longer on the page: the page changed, so the numbers were renewed. Nothing was done.
number-changed = Number { $index } ({ $role } "{ $name }") now shows something else: the page changed, so the numbers were renewed. Nothing was done.
number-outdated = Number { $index } ({ $role } "{ $name }") was on an older list: the page changed a lot since, so the numbers were renewed. Nothing was done.
number-stale = Number { $index } is no longer on the page: the page changed, so the numbers were renewed. Nothing was done.
# An action the user said yes to (or the policy allowed) whose control changed before it ran.
pinned-gone = Not done: the control the action was for ({ $role } "{ $name }") is no longer on the page. The numbers were renewed.
pinned-changed = Not done: the control the action was for ({ $role } "{ $name }") now shows something else. The numbers were renewed.
pinned-focus-moved = Not done: the keyboard focus moved to a control since this was asked, so the key would reach something nobody asked about. The numbers were renewed.
pinned-stale = Not done: the page changed since this was asked. The numbers were renewed.

## The page or the request.

reason-other-document = This part of the page shows another document than the one the action was asked about.
reason-no-document = This part of the page has no document to act in.
reason-not-in-frame = This tool is run by Waymark's service worker, not in the page.
reason-still-moving = The page kept moving, so its password and card fields could not be covered for a picture.
# $key: the key as it was asked for.
reason-unknown-key = "{ $key }" is not a key I know; try Enter, Tab, Escape, Space or an arrow.
# $detail: what the browser or the page's script said, in its own words.
reason-script-failed = Waymark's script in this page failed on this request: { $detail }.

## Acting on a numbered control. $number: its number; $action: click, type or select, as asked.

reason-not-clickable = Could not click number { $number } ({ $role } "{ $name }"): it cannot be clicked.
reason-not-text-field = Could not type into number { $number } ({ $role } "{ $name }"): it is not a text field.
reason-not-a-list = Could not choose in number { $number } ({ $role } "{ $name }"): it is not a list of options.
reason-off-screen = Could not { $action ->
        [type] type into
        [select] choose in
        [right_click] right-click
        [hover] rest the pointer on
        [set] set the value of
       *[click] click
    } number { $number } ({ $role } "{ $name }"): it is not on screen, even after scrolling to it.
# $cover: the words of what is drawn over the control.
reason-covered = Could not { $action ->
        [type] type into
        [select] choose in
        [right_click] right-click
        [hover] rest the pointer on
        [set] set the value of
       *[click] click
    } number { $number } ({ $role } "{ $name }"): it is covered by "{ $cover }"; close that first (close_banners may help).
# $tag: the tag name of what is drawn over the control, such as div.
reason-covered-element = Could not { $action ->
        [type] type into
        [select] choose in
        [right_click] right-click
        [hover] rest the pointer on
        [set] set the value of
       *[click] click
    } number { $number } ({ $role } "{ $name }"): it is covered by a <{ $tag }> element; close that first (close_banners may help).
reason-detached = Could not { $action ->
        [type] type into
        [select] choose in
        [right_click] right-click
        [hover] rest the pointer on
        [set] set the value of
       *[click] click
    } number { $number } ({ $role } "{ $name }"): it is no longer in the page.
reason-act-script = Could not { $action ->
        [type] type into
        [select] choose in
        [right_click] right-click
        [hover] rest the pointer on
        [set] set the value of
       *[click] click
    } number { $number } ({ $role } "{ $name }"): the page's script refused the events ({ $detail }).
# $wanted: the option asked for; $options: the list's options, separated by commas.
reason-no-option = Could not choose in number { $number } ({ $role } "{ $name }"): there is no option "{ $wanted }"; the options are: { $options }.
reason-several-options = Could not choose in number { $number } ({ $role } "{ $name }"): "{ $wanted }" matches several options: { $options }; say which, by its whole name.
# $option: the one option whose label holds the words asked for.
reason-part-of-option = Could not choose in number { $number } ({ $role } "{ $name }"): "{ $wanted }" is part of the option "{ $option }"; ask for it by its whole name.
reason-no-options-opened = Could not choose in number { $number } ({ $role } "{ $name }"): no list of options opened, so "{ $wanted }" was not chosen.
reason-no-value = Could not set the value of number { $number } ({ $role } "{ $name }"): it holds no value (click it, or press a key on it).
# $value: the value asked for.
reason-value-not-taken = Could not set number { $number } ({ $role } "{ $name }") to "{ $value }": it did not take that value (give a number it shows, or press its keys).

## Putting files into a file field. $number: the field's number.

reason-not-a-file-field = Number { $number } is not a file field (it is { $role } "{ $name }"): upload into the field that chooses files.
# $given: how many files were given (two or more).
reason-one-file-only = Number { $number } takes one file, and { $given } were given: upload one of them.
reason-files-not-put = Could not put the files into number { $number }: the page's script refused them ({ $detail }).

## Files for an upload, as the host reads them from this computer. $path: the file's path.

upload-no-paths = Say which file to upload: no path was given.
# $example: a full path on this system, such as /home/me/cv.pdf.
upload-not-absolute = "{ $path }" is not a full path: give the file's whole path, such as { $example }.
upload-missing = There is no file at { $path }: check the path and the file's name.
upload-folder = { $path } is a folder, not a file: name the file inside it.
upload-not-regular = { $path } is not a regular file, so Waymark does not upload it.
upload-forbidden = Waymark may not read { $path }: check the file's permissions.
# $reason: the system's words.
upload-unreadable = Could not read { $path }: { $reason }.
# $size: the file's size, $limit: the most one upload may carry (both said as size-… in tools.ftl).
upload-too-big = { $path } is { $size }, over Waymark's limit of { $limit } for one upload: choose the file yourself with the page's file chooser, or upload a smaller one.
# $count: how many files (two or more).
upload-together-too-big = Together, the { $count } files are { $size }, over Waymark's limit of { $limit } for one upload: choose the files yourself with the page's file chooser, or upload fewer.
