# The policy gate's questions, heard in the panel's alert region, and what whoever asked hears when
# nothing was done (a tool's result: the user's panel, the agent's model, an outside MCP client).
# Values: $target is a control as named by question-target, $address a web address, $site a host name
# ("shop.example"), $key a key as named by question-key-*, quoted page text comes already cleaned.

## A question is an action, perhaps what it does, perhaps the site. It ends in a question mark, heard as a question; it is shown in a dialog with No and Yes buttons (Tab reaches them, and the answer shortcuts work), so "Yes or no" closes only a question that ends in a statement.
## $action is one of question-action-*, $effect one of question-effect-*.
question-do = { $action }?
question-do-on = { $action } on { $site }?
question-do-effect = { $action }: { $effect }. Yes or no?
question-do-effect-on = { $action }: { $effect } on { $site }. Yes or no?
# The site a question names: its host name ($host, such as "shop.example") and, when the page gives its
# site a name that the host name does not say, that name ($name, page text).
question-site-named = { $host } ('{ $name }')
# What /details says while a question about a page is shown; $address: the page's full address.
question-detail-page = The question is about the page { $address }

## A control: its role as screen readers say it ($role, from role-*), its name, and what it shows when
## that is not its name.
question-target = { $role } '{ $name }'
question-target-shows = { $role } '{ $name }' (it shows '{ $shows }')
# The role of a control whose role is not known.
question-element = element
# The item a control acts on, after the control ($target): $item is page text (a row's words, a card's
# heading), $place one of question-where-*.
question-target-for = { $target } for '{ $item }'
question-target-for-at = { $target } for '{ $item }' ({ $place })
# Only the heading above the control says what it is about.
question-target-under = { $target } under '{ $item }'
# $position: the row's or item's place, from 1; $of: the table's or list's name (page text).
question-where-row = row { $position }
question-where-row-of = row { $position } of '{ $of }'
question-where-item = item { $position }
question-where-item-of = item { $position } of '{ $of }'

question-action-back = Go back
question-action-forward = Go forward
question-action-reload = Reload the page
question-action-click = Click { $target }
question-action-type = Type into { $target }
question-action-type-enter = Type into { $target } and press Enter
# $option: the option's label.
question-action-choose = Choose '{ $option }' in { $target }
question-action-download = Click to download from { $target }
question-action-right-click = Right-click { $target }
question-action-hover = Rest the pointer on { $target }
# $value: the value asked for.
question-action-set = Set { $target } to '{ $value }'
# $files: the files' names, separated by commas.
question-action-upload = Upload { $files } from this computer into { $target }
question-action-upload-page = Upload { $files } from this computer into the page
question-action-press-in = Press { $key } in { $target }
question-action-press-on = Press { $key } on { $target }
question-action-press-focused = Press { $key } on { $target } (it has the keyboard focus)
question-action-press-nowhere = Press { $key } where nothing has the focus

question-effect-opens = this opens { $address }
question-effect-opens-tab = this opens { $address } in a new tab
question-effect-opens-download = this opens { $address } (a download)
question-effect-opens-tab-download = this opens { $address } in a new tab (a download)
question-effect-sends-form = this sends its form to { $address }
question-effect-sends-field = this sends what it holds
# $button: the words of the button beside the field.
question-effect-presses-beside = this likely presses '{ $button }' beside it
question-effect-submits-named = this submits the form '{ $button }'
question-effect-submits-to = this submits the form to { $address }
question-effect-acts-on-choice = the page may act on the choice at once
question-effect-may-delete = the page may take it as a command to delete
question-effect-may-command = the page may take it as a command
# $signal: the page's words that say it publishes.
question-effect-publishes = this publishes what it saves (the page says '{ $signal }')
# $address: where the form was posted when the page was first shown.
question-effect-resends = this sends the form to { $address } again
# $asks: the words of the page's own question the control answers (a dialog, the paragraph above an
# "OK"), shortened.
question-effect-answers = this answers the page's question '{ $asks }'
# Two of the effects above, said together.
question-effects = { $first }, and { $second }

question-key-enter = Enter
question-key-space = Space
question-key-delete = Delete
question-key-backspace = Backspace
question-key-tab = Tab
question-key-escape = Escape

question-open = Open { $address }?
question-open-tab = Open { $address } in a new tab?
question-download = Download a file?
question-download-on = Download a file on { $site }?
question-act-unknown = Act? Waymark cannot tell on what. Yes or no.
question-act-unknown-on = Act on { $site }? Waymark cannot tell on what. Yes or no.
# $tool: a tool's name as the model knows it.
question-use-unknown = Use { $tool }? Waymark cannot tell what it would do. Yes or no.
question-use-unknown-on = Use { $tool } on { $site }? Waymark cannot tell what it would do. Yes or no.
# Data that would leave for a site the user has not named in this task: $words are the words that are
# not the user's (they may come from a page), $host the site they would go to.
question-leaves-open = Open { $address }? It would send words that are not yours ('{ $words }') to { $host }, which you have not named. Yes or no.
# $action: what would be done ("Click button 'Search'"); $site: the page's site.
question-leaves-typing = { $action } on { $site }? What is typed there goes to { $host }, which you have not named: words that are not yours ('{ $words }'). Yes or no.
question-leaves-form = { $action } on { $site }? It would send words that are not yours ('{ $words }') to { $host }, which you have not named. Yes or no.
# $tab: the tab's number, $title its title.
question-pinned-tab = Open { $address } in your pinned tab { $tab }, '{ $title }', replacing what it shows?
question-second-tab = Tab { $tab }, '{ $title }', already shows { $site }. Open { $address } in a new tab anyway? Say no to use the open tab.
# What the agent's model hears when the user said no to a second tab; $open is the open tab's address.
question-second-tab-no = Not done: the user prefers the open tab { $tab } ('{ $title }', { $open }): switch to it with browser_switch_tab.
# $index: the number asked for; $role and $name: what that number is.
question-not-a-file-field = Number { $index } is not a file field (it is { $role } '{ $name }'): upload into the field that chooses files.
# A tool of an external MCP server: $tool its name, $server the server's, $arguments what the model
# wrote for it ("text: "milk"").
question-external = Use "{ $tool }" of the MCP server "{ $server }"?
question-external-with = Use "{ $tool }" of the MCP server "{ $server }" with what the assistant wrote ({ $arguments })?

## The request guard: while Waymark acted, the page tried to send a request that the action's own
## question did not cover, and Waymark stopped it. $site: where it was going; $method: POST, DELETE…;
## $address: its path, with its query's names but not their values; $word: the word that says what it
## does; $fields: question-request-fields, or nothing.
question-request-deletes = The page tried to send a request that deletes something (it says '{ $word }') to { $site }: { $method } { $address }{ $fields }. Allow it once?
question-request-pays = The page tried to send a request that pays or orders (it says '{ $word }') to { $site }: { $method } { $address }{ $fields }. Allow it once?
question-request-sends = The page tried to send a request that sends or publishes something (it says '{ $word }') to { $site }: { $method } { $address }{ $fields }. Allow it once?
question-request-unknown = The page tried to send a request to { $site } that Waymark cannot describe: { $method } { $address }{ $fields }. Allow it once?
# $names: the names of the request's fields (never their values), separated by commas.
question-request-fields = , with the fields { $names }
question-request-said-no = Not sent: you said no. The action ran in the page, but its request to { $site } was stopped.

## Outside MCP clients. $client: the name the client gives itself; $program: the program it runs as,
## short (its executable's file name, and an interpreter's script: "node client.mjs"); $path: the
## program's full path (and its interpreter's arguments up to the script); $user: who runs it.
question-admit-client = { $client } ({ $program }) wants to use your browser through Waymark. Allow it?
question-admit-unknown-client = { $client }, a program Waymark cannot identify, wants to use your browser through Waymark. A yes holds for this connection only. Allow it?
question-client-refused = Not done: the user did not allow { $client } to use this browser. They can allow it after the browser restarts.
# What /details says while the consent question is shown.
question-client-detail = { $client } is the program { $path }, run by the user { $user }. Your answer holds for this program until the browser restarts; another program that gives the same name is asked about anew.
question-client-detail-no-user = { $client } is the program { $path }. Your answer holds for this program until the browser restarts; another program that gives the same name is asked about anew.
question-client-detail-unknown = Waymark could not read which program on this computer { $client } is, so your answer holds for this connection only.
# A client's question about an action: $question is the question.
question-client-asks = { $client } asks: { $question }
# A client's name when another program gives the same one.
question-client-program = { $client } ({ $program })
question-client-unidentified = { $client } (a program Waymark cannot identify)

## What the asker hears when nothing was done.
question-said-no = Not done: you said no.
question-unanswered-expired = Not done: nobody answered the question within 5 minutes.
question-unanswered-page-changed = Not done: the page changed before the user answered, so the action could no longer do what was asked.
question-unanswered-withdrawn = Not done: the question was withdrawn before the user answered.
question-unanswered-stopped = Not done: the user stopped the agent before answering.

## At the yes the action is described again; when what it would do is no longer what the question said
## (a list redrew its rows in place), nothing is done and the user is asked again, hearing first what
## changed. $question is the new question, $change one of question-changed-*; $now and $before are page
## text or addresses.
question-changed = The page changed since the question: { $change }. { $question }
question-changed-item = it now acts on '{ $now }', not '{ $before }'
question-changed-item-gone = it no longer acts on '{ $before }'
question-changed-words = the control now says '{ $now }', not '{ $before }'
question-changed-asks = the page's question now says '{ $now }'
question-changed-destination = it now goes to { $now }, not { $before }
question-changed-form = it now sends its form to { $now }
question-changed-option = it would now choose '{ $now }', not '{ $before }'
