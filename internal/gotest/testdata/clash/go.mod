module example.com/clash

go 1.22
