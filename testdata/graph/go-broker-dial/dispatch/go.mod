module example.com/dispatch

go 1.22
