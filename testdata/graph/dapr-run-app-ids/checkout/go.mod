module example.com/shop/checkoutsvc

go 1.22
