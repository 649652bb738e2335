module example.com/checkoutgo

go 1.22
