module example.com/gocheckout

go 1.22
