module example.com/frontend

go 1.22
