module example.com/audit

go 1.22
