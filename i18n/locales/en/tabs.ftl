# Why a page tool could not run: the tab or page out of reach, a number that is not there, a picture
# or a download that did not come. Heard in the panel; the model and MCP clients get them as the
# tool's error. $why: the browser's reason, in its words; $url: the tab's address.

tab-none = There is no web page to work on: open a page in this window, then try again.
tab-page-silent = The page in this tab did not answer this request (the browser says: { $why }). Try again; if it keeps failing, reload the page.

## The page's own dialog, which blocks it until the user answers it in the browser's dialog. $text:
## the page's words (shortened), or page-dialog-no-words.

page-dialog-alert = The page says: “{ $text }”. It waits in the browser's dialog: press Enter for OK.
page-dialog-confirm = The page asks: “{ $text }”. Answer it in the browser's dialog: Enter for OK, Escape for Cancel.
page-dialog-prompt = The page asks you to type: “{ $text }”. Answer it in the browser's dialog: type, then press Enter for OK; Escape cancels.
page-dialog-leave = The page asks whether to leave it: what you changed there may not be saved. Answer it in the browser's dialog: Enter to leave, Escape to stay.
page-dialog-no-words = no words
tab-page-kept-changing = The page kept changing while Waymark moved the focus. Try again.
tab-frame-silent = A frame inside this page did not answer this request (the browser says: { $why }); it may still be loading. Try again in a moment.
tab-browser-page = Waymark cannot reach this tab: it shows { $url }, one of the browser's own pages, which no extension may enter. Open a web page in it, or switch to a tab that shows one.
tab-web-store = Waymark cannot reach this tab: it shows the Chrome Web Store ({ $url }), which no extension may enter.
tab-file-page = Waymark cannot reach this tab: it shows a file ({ $url }), and Waymark may enter files only when "Allow access to file URLs" is on in its details on the browser's extensions page.
tab-needs-reload = Waymark cannot reach the page in this tab ({ $url }): its script did not start there, which happens to pages that were open while Waymark was updated. Reload the page, then try again.
tab-page-policy = Waymark cannot work in the page in this tab ({ $url }): the page's own security policy does not let Waymark's script run in it (the browser applies it to extensions too), so nothing here can be listed or done by number. Reloading does not help.
tab-not-entered = Waymark cannot reach the page in this tab ({ $url }): the browser lets no extension into it (an error page, or a site the browser's settings close to extensions).
tab-still-loading = The page in this tab is still loading after { $seconds ->
    [one] { $seconds } second.
   *[other] { $seconds } seconds.
} Try again once it has loaded.
tab-closed = That tab has been closed.
tab-unreadable-answer = The page answered something Waymark cannot read.
tab-answer-not-described = Waymark could not put its answer into words ({ $why }).
tool-not-through-gate = A page-changing tool runs only through the Waymark host and its policy gate.
tool-guard-failed = Not done: Waymark could not watch what this tab sends while it acts, so it did not act.
tool-banners-through-gate = Closing banners is run by the gate: find_banners, then press_banners.
tool-workers-message = That message is the service worker's to send.

## Numbers. $index: the number asked for; $total: the last number there is.

number-none-yet = There are no numbers yet on this page: say /list first.
number-missing = There is no number { $index }: the list goes from 1 to { $total }. Say /list for the current numbers.
pinned-page-changed = Not done: the page changed since this was asked (the tab shows another page now), so it could no longer do what was asked. The numbers were renewed.
upload-no-file = No file arrived to put into number { $index }.

## Pictures of the screen.

picture-not-covered = No picture was taken: a part of the page did not answer, so Waymark could not cover its password, code and card fields. Try again once the page has loaded.
picture-busy = Other pictures of the screen were still being taken; ask again in a moment.
picture-refused = The browser did not take the picture: { $why }
picture-no-tab = Could not find the tab to take a picture of: { $why }
picture-tab-behind = This tab is not the one its window shows, so the browser cannot take a picture of it: bring it to the front first (browser_switch_tab), then ask again.
picture-no-window = Could not tell which window shows the tab.
picture-unreadable = The browser's picture came in a form Waymark cannot read.

## Downloads. $seconds: how long Waymark waited; $name: the file; $index: the number clicked.

download-unwatched = Could not watch for downloads: { $why }.
download-none-after-click = No download started within { $seconds ->
    [one] { $seconds } second
   *[other] { $seconds } seconds
} after clicking { $index }.
download-none = No download is going on, and none started within { $seconds ->
    [one] { $seconds } second.
   *[other] { $seconds } seconds.
}
download-stopped = The download of { $name } stopped: { $why }.
download-stopped-no-reason = The download of { $name } stopped: the browser gave no reason.
download-unfinished = The download of { $name } did not finish within { $seconds ->
    [one] { $seconds } second
   *[other] { $seconds } seconds
}; it goes on in the browser: wait for it with browser_download_wait.
download-unfinished-unnamed = The download of the file did not finish within { $seconds ->
    [one] { $seconds } second
   *[other] { $seconds } seconds
}; it goes on in the browser: wait for it with browser_download_wait.
