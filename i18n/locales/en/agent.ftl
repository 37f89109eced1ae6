# The agent's sentences to the user, in chat mode: progress lines (the status region), accounts of
# each step (tool events), its messages, the stop and the step limit, and a model server that fails.
# $index is a control's number, $address a web address, $tool a tool's name as the model knows it.

## What a step is doing ("Clicking 12"), said before it runs.
agent-progress-list = Reading the page's controls
# $what: the words or the role looked for.
agent-progress-find = Looking for { $what }
agent-progress-find-controls = Looking for controls
agent-progress-extract = Reading the page
# $direction: up, down, top or bottom.
agent-progress-scroll = Scrolling { $direction ->
    [up] up
    [down] down
    [top] to the top
   *[bottom] to the bottom
}
agent-progress-click = Clicking { $index }
agent-progress-type = Typing into { $index }
agent-progress-choose = Choosing an option in { $index }
agent-progress-right-click = Right-clicking { $index }
agent-progress-hover = Pointing at { $index }
agent-progress-set = Setting the value of { $index }
# $key: the key as the model named it.
agent-progress-press = Pressing { $key }
agent-progress-open = Opening { $address }
agent-progress-open-tab = Opening { $address } in a new tab
agent-progress-back = Going back
agent-progress-forward = Going forward
agent-progress-reload = Reloading the page
agent-progress-wait = Waiting for the page
agent-progress-tabs = Listing the tabs
agent-progress-switch-tab = Switching to tab { $index }
agent-progress-show-numbers = Showing the numbers
agent-progress-hide-numbers = Hiding the numbers
agent-progress-describe = Looking at { $index }
agent-progress-preview = Looking at what an action would do
agent-progress-find-banners = Looking for banners
agent-progress-close-banners = Closing banners
agent-progress-click-at = Clicking { $index } at its place on screen
agent-progress-type-at = Typing into { $index } at its place on screen
agent-progress-choose-at = Choosing an option in { $index } at its place on screen
agent-progress-focus-next = Moving the focus forward
agent-progress-focus-prev = Moving the focus back
agent-progress-screenshot = Taking a picture of the screen
# $files: the files' paths, separated by commas.
agent-progress-upload = Uploading { $files } into { $index }
agent-progress-download = Clicking { $index } and waiting for the download
agent-progress-download-wait = Waiting for the download
agent-progress-external = Using the tool { $tool }
agent-progress-admit = Letting { $client } use the browser
agent-progress-look-again = Looking at the page again

## How a step went (tool events, and the lists of steps in the stop and step-limit summaries).
# $count: how many controls the page has.
agent-summary-controls = { $count ->
    [one] { $count } control
   *[other] { $count } controls
}
agent-summary-found = { $count } found
agent-summary-read = read the page
# $step: what the step did (agent-progress-*).
agent-summary-done = { $step }: done
agent-summary-failed = { $step }: failed
agent-summary-stopped = { $step }: stopped before its outcome was known
agent-summary-unusable = { $step }: not usable
# $step: what the step did; $outcome: how it went.
agent-summary-step = { $step }: { $outcome }
agent-summary-said-yes = Done, as you said yes.
agent-summary-waiting = waiting for your yes or no
# $names: the banners' buttons pressed, separated by semicolons.
agent-summary-banners = closed { $names }

## The agent's own messages.
agent-done = Done.
agent-ask = What should I do next?
agent-busy = I am still working on your last message; wait for it to finish, or say stop.
agent-idle = The agent is not working on anything.
# $length: the message's length in characters; $max: the most the agent takes.
agent-too-long = Your message is { $length } characters long; the agent takes up to { $max }. Nothing was sent to it: shorten the message, or split it into parts.
agent-question-lost = That question was lost when Waymark started again, so nothing was done. Send a message to go on.
# The model's words about a step it leaves to the user ($what).
agent-handoff-model = The assistant says: { $what }
agent-handoff-unsaid = There is a step only you can do in the page.
# $what: the step left to the user, as said by gate-handoff-* or agent-handoff-*.
agent-handoff-say-done = { $what } Say done when you have finished.
# To the model, as the result of a step the user stopped.
agent-step-stopped-result = The user stopped the agent before this step's outcome came back; it may or may not have happened. Look at the page before acting again.
# $problem: what went wrong with an external MCP server.
agent-mcp-server-failed = { $problem }. Its tools are not available; check [[mcp_servers]] in config.toml.

## The stop. $done: the steps done so far, separated by semicolons.
agent-stopped = Stopped. Done so far: { $done }. Say continue to go on.
agent-stopped-before-any-step = Stopped before any step. Say continue to go on.

## The step limit, one sentence each.
agent-limit-planned = I have planned for a while without acting, and stopped to check with you.
# $steps: how many steps were taken (the limit).
agent-limit-steps = I have taken { $steps } steps, my limit for one message, and stopped to check with you.
agent-limit-did = What I did: { $done }.
agent-limit-all-worked = All { $count } worked.
# $worked: how many steps worked; $failed: those that did not, separated by semicolons.
agent-limit-some-failed = { $worked } worked; these did not: { $failed }.
agent-limit-found = What I found: { $facts }.
agent-limit-next = Next I would: { $next }.
agent-limit-next-goal = Next I would: carry on with "{ $goal }".
agent-limit-go-on = Shall I go on? Say continue, or tell me what to change.
