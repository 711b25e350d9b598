// TweetieSync builds on the object store: importing TweetieSync gives you TweetieDB too.
@_exported import TweetieDB
