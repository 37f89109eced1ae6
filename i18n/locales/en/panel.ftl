# The side panel's sentences: what a user of a screen reader hears from Waymark's chat.
# Values: $ms milliseconds, $version the host's version, $pid its process number.

pong = Pong, { $ms } ms.
pong-detail = Waymark host { $version }, process { $pid }, answered in { $ms } ms.
