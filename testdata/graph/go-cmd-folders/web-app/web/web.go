package web

import "google.golang.org/grpc"

// Serve answers the browser's requests with the emoji service's answers.
func Serve(conn *grpc.ClientConn) {
	_ = conn
}
