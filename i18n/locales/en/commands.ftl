# The panel's commands: /help, an unknown command, and how to use one said the wrong way. Commands
# keep their English names in every language; a language with its own forms of some (/да, /нет,
# /готово, /стоп) names them beside the English ones.

# $commands: the lines below, joined by "; ".
help = Commands: { $commands }.
command-chat = /chat: chat mode: what you type goes to the agent, until /exit
command-exit = /exit: leave chat mode
command-list = /list: number the controls of the page and read the first ten (/list all: every one)
command-click = /click N: click the control with number N
command-type = /type N text: type text into field N, replacing what is there
command-select = /select N option: choose an option of list N by its name
command-set = /set N value: set the value of slider, spin button or rating N, like /set 5 40
command-rightclick = /rightclick N: right-click control N, opening the page's own context menu (also /menu N)
command-hover = /hover N: rest the pointer on control N, opening what opens on hover
command-more = /more: the next part of the last list
command-details = /details: more about the last answer (which host answered /ping, for instance)
command-find = /find text: find controls by name
command-read = /read: a short summary of the page
command-scroll = /scroll: up, down, top or bottom, optionally a number: scroll the page or that area
command-press = /press: key, optionally a number: press Enter, Tab, Escape, Space or an arrow
command-go = /go address: open a web address
command-back = /back: go back a page
command-forward = /forward: go forward a page
command-reload = /reload: reload the page
command-tabs = /tabs: list the tabs of this window
command-tab = /tab N: switch to tab N
command-wait = /wait: wait until the page stops changing
command-banners = /banners: close cookie, consent and newsletter banners, choosing reject where offered
command-next = /next: optionally a role: move the keyboard focus to the next control (or the next button, link, …)
command-prev = /prev: optionally a role: move the keyboard focus to the previous control
command-stop = /stop: stop the agent at once (also: stop, Escape while it works); say continue to go on
command-yes = /yes: answer yes to Waymark's question
command-no = /no: answer no to Waymark's question
command-done = /done: you finished the step Waymark left to you (a login, a captcha, a code)
command-overlay = /overlay on or off: show or hide the numbers on the page
command-ping = /ping: check that the Waymark host answers, and which process it is
command-settings = /settings: open the settings page: the LLM, the step limit, and the checks
command-window = /window: open Waymark in a window of its own, beside the page (the way for Orca users)
command-keys = /keys: the keyboard shortcuts, and which are not set
command-help = /help: list the commands
# $name: what the user typed; $suggestion: the nearest known command.
command-unknown = Unknown command { $name }. Type /help for the list.
command-unknown-suggest = Unknown command { $name }. Did you mean { $suggestion }? Type /help for the list.
usage-click = Say /click and a number, like /click 12.
usage-type = Say /type, a number and the text, like /type 4 hello.
usage-select = Say /select, a number and an option, like /select 7 Large.
usage-set = Say /set, a number and a value, like /set 5 40.
usage-rightclick = Say /rightclick and a number, like /rightclick 12.
usage-hover = Say /hover and a number, like /hover 12.
usage-find = Say /find and some words of a control's name, like /find cart.
usage-go = Say /go and an address, like /go example.com.
usage-tab = Say /tab and a number from /tabs, like /tab 2.
usage-scroll = Say /scroll up, down, top or bottom, and optionally a number.
usage-press = Say /press and a key, like /press Enter, or /press Enter 4 for control 4.
usage-overlay = Say /overlay on or /overlay off.
