module example.com/agency

go 1.22
