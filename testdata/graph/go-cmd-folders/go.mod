module example.com/emojis

go 1.21
