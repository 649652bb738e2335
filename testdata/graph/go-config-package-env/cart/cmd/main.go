package main

import (
	"log"

	"example.com/cart/internal/config"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

func main() {
	cfg := config.InitConfig()
	conn, err := grpc.NewClient(cfg.GRPCProductServiceAddress, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		log.Fatal(err)
	}
	defer conn.Close()
}
