# Words the user types, not words Waymark says: each message lists, separated by commas, what the
# user may type in this language for one meaning, alone on a line or after a slash (like /done).
# Case, extra spaces and a closing full stop do not matter. Commands keep their English names in
# every language (/yes, /no, /done, /stop; all and none in the terminal), and every language's words
# are understood whatever the browser's language; English lists the English ones.

# Answers to Waymark's question, typed after a slash: /yes, /no.
input-yes = yes, y
input-no = no, n
# While a step waits for the user: it is finished (like /done).
input-done = done, i'm done, im done, i am done, finished, ok done, all done
# The agent stops at once (like /stop).
input-stop = stop, stop it
# The answers to the terminal's question which browsers may start the host: every browser, or none.
input-cli-all = all
input-cli-none = none
