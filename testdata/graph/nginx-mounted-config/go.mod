module example.com/logstore

go 1.22
