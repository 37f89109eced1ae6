# The host's own sentences to the browser's user that are neither questions nor the agent's: the gate's
# refusals and hand-overs, and errors about the messages the browser sends.

## The policy gate. These reach the panel, the agent's model and outside MCP clients as a tool's error.
# A tool waits for the user's answer; $question is the question as asked.
gate-waiting = Not done yet: Waymark asked the user "{ $question }" and waits for the answer.
gate-internal-step = That step is Waymark's own and cannot be asked for directly.
gate-preview-unreadable = Not done: the page's description of the action could not be read.
gate-host-stopping = Waymark stopped before the user answered.
gate-too-many-questions = Not done: too many questions already wait for the user's answer.
gate-server-gone = Not done: the tool's server is gone.
# An outside MCP client's call while the user is asked whether it may use the browser at all.
gate-awaiting-consent = Not done yet: the user is being asked in Waymark's side panel whether { $client } may use this browser. Try this call again in a little while: it runs once they allow it.
gate-request-blocked = Stopped: while Waymark acted, the page tried to post a form to { $address } as the whole tab's next page, and the browser now shows its page saying it was blocked. Nothing was sent. Go back to return to the page.
gate-request-gave-up = Not done: the page kept sending new requests each time the action ran again.
## A step left to the user, and why.
gate-handoff = Waymark leaves this step to you. Do it yourself in the page, then carry on.
gate-handoff-captcha = Waymark leaves this step to you: this looks like a captcha, and solving it is for you. Do it yourself in the page, then carry on.
# $secret: password, code (a one-time code), pin or card.
gate-handoff-type = Waymark leaves this step to you: typing { $secret ->
    [password] a password
    [code] a one-time code
    [pin] a PIN
   *[card] card details
} is for you. Do it yourself in the page, then carry on.
gate-handoff-choose = Waymark leaves this step to you: choosing { $secret ->
    [password] a password
    [code] a one-time code
    [pin] a PIN
   *[card] card details
} is for you. Do it yourself in the page, then carry on.
gate-handoff-card-number = Waymark leaves this step to you: the text looks like a payment card number, and card details are for you. Do it yourself in the page, then carry on.

## Messages from the browser the host could not take (an error reply). $detail: what the reader said.
# $length: the message's size in bytes; $limit: the most the host takes.
host-frame-oversized = a message of { $length } bytes is over the limit of { $limit } bytes; it was skipped
host-frame-not-utf8 = the message is not valid UTF-8 ({ $detail }); it was ignored
host-frame-not-json = the message is not valid JSON ({ $detail }); it was ignored
# $protocol: the protocol version this host speaks.
host-frame-unknown = this host (protocol { $protocol }) cannot read the message: { $detail }
# $length: the answer's size in bytes; $limit: the most the browser takes.
host-reply-too-large = the answer was { $length } bytes, over the browser's limit of { $limit }; it was not sent

## The agent's saved session. $why: what was wrong with it (one of session-unreadable-*).
session-reset = I could not read my saved session, so I start afresh: { $why }.
# $path: where the unreadable file was kept.
session-reset-kept = I could not read my saved session, so I start afresh: { $why }. It was kept as { $path }.
session-unreadable = it could not be read ({ $detail })
# $version: the file's version; $expected: the one this host reads.
session-unreadable-version = it is of version { $version }, not { $expected }
session-unreadable-content = it is not a session Waymark can read ({ $detail })

## Refusals said to the agent's model and outside MCP clients in terms of tools (the panel's say
## "/list"). $index: the number or tab asked for.
mcp-stale-number = Number { $index } is not in the page's latest list. Call browser_list_interactives (or browser_find) for the current numbers. Nothing was done.
mcp-no-numbers = The page has no numbers yet. Call browser_list_interactives first. Nothing was done.
mcp-no-tab = There is no tab { $index }. Call browser_list_tabs for the tabs and their numbers.

## An outside MCP client that gave no name worth saying (what the consent question calls it).
mcp-unnamed-client = An unnamed program
# A client that calls itself Waymark (any spelling) is not let in.
mcp-client-named-waymark = Not done: a program may not call itself Waymark. Waymark did not ask the user about it; give the client its own name.

## `waymark-host mcp`, while no browser's host answers: said to the MCP client (as a tool error) and
## on `--list`. $path: the folder the hosts' sockets are in; $pid: a host's process id; $profile: a
## browser profile folder (or a part of one the person typed); $socket: a socket's path; $running: the
## hosts running now, one line each, joined with "; ".
mcp-no-browser = No browser with Waymark is running for this user (nothing listens in { $path }). Open Chrome, Chromium or Edge with the Waymark extension, then try again; run `waymark-host doctor` if it still fails.
mcp-no-match-pid = No running Waymark host matches the pid { $pid }. Running now: { $running }
mcp-no-match-profile = No running Waymark host matches the profile "{ $profile }". Running now: { $running }
mcp-no-match = No running Waymark host matches the pid { $pid } and the profile "{ $profile }". Running now: { $running }
mcp-list-newest = pid { $pid } (newest, used by default): profile { $profile }, socket { $socket }
mcp-list-host = pid { $pid }: profile { $profile }, socket { $socket }
# A browser's own default profile.
mcp-default-profile = (default)

## `waymark-host mcp`, when the browser's host went away before it answered a call. $tool: the tool.
mcp-host-gone-changing = The browser's Waymark host went away while { $tool } was running (the browser was closed, or Waymark restarted), so whether it was done is unknown. Once the browser is back, look at the page (browser_list_interactives) before trying it again.
mcp-host-gone-reading = The browser's Waymark host went away before { $tool } answered (the browser was closed, or Waymark restarted); it changes nothing on the page. Call it again once the browser is back.
# A request that is not a tool call.
mcp-host-gone-request = The browser's Waymark host went away before it answered; try again once the browser is back.

## A page tool the host could not hand to the browser, or whose answer never came.
browser-not-connected = the browser is not connected
browser-gone-before-answer = the browser disconnected before the page answered
# $seconds: how long the host waited for the page.
browser-page-timeout = the page did not answer within { $seconds ->
    [one] { $seconds } second
   *[other] { $seconds } seconds
}
