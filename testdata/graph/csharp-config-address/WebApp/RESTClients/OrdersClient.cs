namespace WebApp.RESTClients;

public class OrdersClient(HttpClient http)
{
    public Task<Order?> Get(int id) => http.GetFromJsonAsync<Order>($"/orders/{id}");
}
