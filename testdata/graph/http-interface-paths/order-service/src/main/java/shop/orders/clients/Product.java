package shop.orders.clients;

public record Product(String code, String name) {}
