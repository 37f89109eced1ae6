# `waymark-host install` and `uninstall` in a terminal, said in the terminal's language (its locale:
# LC_ALL, LC_MESSAGES, LANG). $browser: a browser's name; $browsers: several, as a cli-list- says them;
# $path: a file or folder; $key: a Windows registry key; $id: an extension id; $detail: the system's
# own words.

## Lists of browsers. $rest: all but the last, joined with commas.
cli-list-two = { $first } and { $last }
cli-list-more = { $rest } and { $last }
cli-list-or-two = { $first } or { $last }
cli-list-or-more = { $rest } or { $last }

## The question install asks when no --browser is given. $number: the browser's number to type.
cli-ask-which = Which browsers may start Waymark's host?
cli-ask-found = { $number }. { $browser } (found)
cli-ask-not-found = { $number }. { $browser } (not found)
cli-ask-how = Type numbers or names, such as: 1 3, or: chrome edge. Or type all, or none.
cli-ask-enter-none = Enter alone registers none: no browser was found.
cli-ask-enter-found = Enter alone registers the ones found: { $browsers }.
# Before the answer, on the same line.
cli-ask-prompt = Browsers:
cli-ask-none-alone = none cannot be combined with other browsers; type it alone.
# $answer: a word of the answer that names no browser.
cli-ask-unknown = "{ $answer }" is not one of 1, 2, 3, chrome, chromium, edge, all or none.

## What install did.
cli-install-nothing = nothing registered; run waymark-host install again to choose browsers
cli-install-stopped = stopped: nothing registered
cli-install-one-browser = a profile folder belongs to one browser: name at most one --browser with --user-data-dir
cli-install-where-am-i = cannot tell where this waymark-host binary is
cli-install-id-added = the extension { $id } may now use this host (recorded in { $path })
# $host: the host's name (io.waymark.host).
cli-install-registered = registered { $host } for { $browser }: { $path }
cli-install-registered-profile = registered { $host } for the profile: { $path }
cli-install-registry-key = and the registry key { $key } names it
cli-install-recorded = recorded in { $path }; `waymark-host uninstall` removes it
cli-install-recorded-system = recorded in { $path }; `waymark-host uninstall --system` removes it
cli-install-note-windows-profile = note: on Windows browsers find hosts through the registry, not the profile folder

## What uninstall did, one line each. $record: the record of what install wrote.
cli-removed-file = removed { $path }
cli-removed-file-for = removed { $path } ({ $browsers })
cli-removed-key = removed the registry key { $key }
cli-removed-dir = removed the folder { $path }, which install had created
cli-removed-id = the extension { $id } may no longer use this host (removed from { $path })
cli-removed-store = removed { $path }, now empty
cli-already-gone = { $path } was already gone
cli-key-already-gone = the registry key { $key } was already gone
cli-left-not-ours = left { $path } where it is: it is no longer a Waymark host manifest
cli-left-key-other = left the registry key { $key } where it is: it names another manifest now
cli-left-key-not-windows = left the registry key { $key } where it is: the registry exists only on Windows
cli-remove-failed = could not remove { $path }: { $detail }
cli-remove-key-failed = could not remove the registry key { $key }: { $detail }
cli-nothing-recorded = nothing is recorded in { $record }
cli-nothing-recorded-for = nothing is recorded for { $browsers } in { $record }
cli-nothing-recorded-profile = nothing is recorded for the profile folder { $path } in { $record }
cli-uninstall-system-too = what install --system wrote for every user goes with: sudo waymark-host uninstall --system
cli-uninstall-failed = some registrations could not be removed; they stay recorded, so uninstall can try again

## Why install or uninstall could not do it.
cli-error-bad-id = "{ $id }" is not an extension id: ids are 32 letters from a to p
cli-error-relative-host = the host path { $path } is not absolute; browsers need an absolute path
cli-error-no-home = cannot find your home folder: set HOME
cli-error-no-choice = which browsers? install asks only on a terminal, and this is not one: pass --browser chrome, chromium or edge (several: --browser chrome,edge), or --browser all; no Chrome, Chromium or Edge was found here
cli-error-no-choice-found = which browsers? install asks only on a terminal, and this is not one: pass --browser chrome, chromium or edge (several: --browser chrome,edge), or --browser all; found here: { $browsers }
cli-error-other-id-system = --extension-id { $id } cannot be registered for every user: the host started for each user serves only Waymark's own ids and those that user registered; run `waymark-host install --extension-id { $id }` as that user instead
cli-error-needs-admin = cannot write { $path }: permission denied; registering for every user needs root (sudo waymark-host install --system …) or, on Windows, an administrator
cli-error-write = cannot write { $path }: { $detail }
cli-error-registry = cannot point the registry key { $key } at the manifest: { $detail }
cli-error-record-read = cannot read the record of what install wrote, { $path }: { $detail }
cli-error-record-parse = the record of what install wrote, { $path }, is not readable ({ $detail }); move it away to start a new one (the files it lists then stay until you remove them)
cli-error-record-write = cannot write the record of what install wrote, { $path }: { $detail }
cli-install-none-found = no Chrome, Chromium or Edge was found here, so none is registered; once one is installed: waymark-host install --browser found
