package main

import "net"

func main() {
	l, err := net.Listen("tcp", ":8080")
	if err == nil {
		l.Close()
	}
}
