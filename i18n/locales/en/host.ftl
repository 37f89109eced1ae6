# The host's own sentences to the browser's user that are neither questions nor the agent's: the gate's
# refusals and hand-overs, and errors about the messages the browser sends.

## The policy gate. These reach the panel, the agent's model and outside MCP clients as a tool's error.
# A tool waits for the user's answer; $question is the question as asked.
gate-waiting = Not done yet: Waymark asked the user "{ $question }" and waits for the answer.
gate-internal-step = That step is Waymark's own and cannot be asked for directly.
gate-preview-unreadable = Not done: the page's description of the action could not be read.
gate-call-cancelled = The call was cancelled before the user answered; nothing was done.
gate-host-stopping = Waymark stopped before the user answered.
gate-too-many-questions = Not done: too many questions already wait for the user's answer.
gate-server-gone = Not done: the tool's server is gone.
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
