# The side panel's sentences: what a user of a screen reader hears from Waymark's chat.

## The status line: the connection to the host, then the agent's state.

status-connecting = Connecting to the Waymark host…
# Short: it is said every time Waymark's window or panel opens. The host's version is in /details.
status-connected = Connected.
# $package: the host's package name; $command: the command that installs it from source.
status-not-installed = Waymark's host is not installed for this browser: install the { $package } package, or from source run { $command }
# $command: the command that allows this extension (its id and this browser in it).
status-forbidden = Waymark's host here does not allow this extension. To allow it, run in a terminal: { $command }
# $version: the host's version; $host_protocol and $protocol: the protocol numbers of host and extension.
status-incompatible = Waymark host { $version } speaks protocol { $host_protocol } but this extension speaks { $protocol }: install the same version of both (the { $package } package and the extension, or from source { $command })
# $reason: why (one of the messages below, or the browser's own words for a reason it gave that
# Waymark does not know).
status-disconnected = Waymark host disconnected ({ $reason }); reconnecting…
status-host-exited = the host program ended
status-host-failed-to-start = the browser could not start the host program
status-host-unreadable = the browser could not talk to the host program
status-host-closed = the host closed the connection
status-host-silent = the host did not answer within { $seconds ->
    [one] { $seconds } second
   *[other] { $seconds } seconds
}
agent-state-running = The agent is working…
agent-state-idle = The agent is ready.
agent-state-waiting = The agent is waiting for you.
agent-state-error = The agent stopped on an error.

## Answers in the transcript. Values: $ms milliseconds, $version the host's version, $pid its process number.

pong = Pong, { $ms } ms.
pong-detail = Waymark host { $version }, process { $pid }, answered in { $ms } ms.
panel-no-details = There is nothing more to say about the last answer.
panel-ping-timeout = The host did not answer /ping within { $seconds ->
    [one] { $seconds } second.
   *[other] { $seconds } seconds.
}
# $message: the host's own sentence.
panel-host-error = The host reported an error: { $message }
# $reason: the connection's status line, or the message below.
panel-not-delivered = Could not reach the host: { $reason }. Waymark keeps retrying on its own.
panel-worker-reconnecting = the panel is reconnecting to the service worker
panel-chat-unavailable = That is not a command. To give the agent a task, type /chat first; /help lists the commands.
panel-chat-on = Chat mode: your messages go to the agent. /exit to leave.
panel-chat-off = Chat mode off: type commands, or /chat to talk to the agent again.
# $text: the agent's own sentence.
agent-stopped-error = The agent stopped: { $text }
# Shown, never spoken, above what the user typed ($text).
panel-you-said = You: { $text }
overlay-shown = Numbers shown on the page.
overlay-hidden = Numbers hidden.
question-closed-expired = The question was withdrawn: nobody answered it in time. Nothing was done.
question-closed-page-changed = The question was withdrawn: the page it was about has changed. Nothing was done.
question-closed-withdrawn = The question was withdrawn: whoever asked stopped waiting. Nothing was done.
question-closed-stopped = The question was withdrawn: you stopped the agent. Nothing was done.
panel-opening-settings = Opening Waymark's settings in a new tab.
panel-no-manual-step = No step is waiting for you to finish.
panel-nothing-to-answer = There is no question waiting for an answer.
panel-answer-refused = That question is no longer open: this answer did nothing.
panel-tool-timeout = The page did not answer within { $seconds ->
    [one] { $seconds } second.
   *[other] { $seconds } seconds.
}
panel-page-error = The page reported an error.
# What an outside MCP client did, or why it was not done: $source its name, $summary the host's sentence
# (a failure's sentence says itself that nothing was done).
client-activity = { $source }: { $summary }

## Keyboard shortcuts (/keys) and Waymark's own window.

shortcut-confirm = yes
shortcut-reject = no
shortcut-manual-done = done
shortcut-open-window = Waymark in its own window
shortcut-side-panel = the side panel
shortcut-toggle-overlay = numbers on or off
shortcut-stop-agent = stop the agent
# One shortcut of /keys: $name what it does, $key its keys.
shortcut-key = { $name }: { $key }
shortcut-unset = { $name }: not set
# $shortcuts: the lines above, joined by "; ".
shortcuts = Shortcuts: { $shortcuts }. Change them at chrome://extensions/shortcuts (Edge: edge://extensions/shortcuts).
# $names: the unset shortcuts' names, joined by ", ".
shortcuts-unset = These shortcuts are not set: { $names }. Set them at chrome://extensions/shortcuts (Edge: edge://extensions/shortcuts); /keys lists them all.
window-opening = Opening Waymark in its own window.
window-already = This is Waymark's own window. Its shortcut goes back to the page; /keys says which it is.
# Said when the side panel opens on Linux. $key: the shortcut that opens Waymark's own window.
panel-orca-side-panel = With Orca, the page is silent while this side panel is open. { $key } opens Waymark in its own window instead, and goes back to the page.
panel-orca-side-panel-no-key = With Orca, the page is silent while this side panel is open. /window opens Waymark in its own window instead.

## The activity view, for sighted helpers: $tool a tool's name, $summary what it did, $text a message.

activity-ok = ok
activity-failed = failed
activity-agent-tool = Agent, { $tool }, { $outcome }: { $summary }
activity-client-tool = { $source }, { $tool }, { $outcome }: { $summary }
activity-question = Question: { $text }
activity-step = Step for you: { $text }
activity-answer = Answer: { $answer }
activity-answer-yes = yes
activity-answer-no = no
activity-answer-done = done
activity-answer-withdrawn = withdrawn
activity-error = Error: { $text }
activity-stopped = Stop: { $text }

## The side panel page's own words (sidepanel.html).

page-panel-title = Waymark
page-panel-settings-link = Settings
page-panel-conversation = Conversation
page-panel-activity = Activity
page-panel-no = No
page-panel-yes = Yes
page-panel-message = Message or command
page-panel-send = Send
page-panel-hint = Type /help for the commands.
