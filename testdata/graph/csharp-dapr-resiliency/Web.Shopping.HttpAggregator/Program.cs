var builder = WebApplication.CreateBuilder(args);
builder.Services.AddDaprClient();
builder.Services.AddSingleton<IBasketService, BasketService>(
    _ => new BasketService(DaprClient.CreateInvokeHttpClient("basket-api")));
builder.Services.AddSingleton<ICatalogService, CatalogService>();
var app = builder.Build();
app.Run();

public class CatalogService(DaprClient daprClient) : ICatalogService
{
    public Task<CatalogItem> GetItem(int id) =>
        daprClient.InvokeMethodAsync<CatalogItem>(HttpMethod.Get, "catalog-api", $"api/v1/catalog/items/{id}");
}
