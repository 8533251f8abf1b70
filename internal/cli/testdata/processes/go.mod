module example.com/processes

go 1.22
