package main

import (
	"os"

	"google.golang.org/grpc"

	"example.com/emojis/web-app/web"
)

var emojiHost = os.Getenv("EMOJI_HOST")

func main() {
	conn := openConnection(emojiHost)
	defer conn.Close()
	web.Serve(conn)
}

func openConnection(host string) *grpc.ClientConn {
	conn, err := grpc.Dial(host, grpc.WithInsecure())
	if err != nil {
		panic(err)
	}
	return conn
}
