module example.com/back

go 1.22
