module example.com/quickstart

go 1.22
