package schemas

//go:generate sh generate.sh
