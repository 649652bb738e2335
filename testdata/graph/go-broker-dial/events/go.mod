module example.com/events

go 1.22
