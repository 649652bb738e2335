public sealed class StockReader(IHttpClientFactory factory)
{
    public async Task<int> CountAsync(int id)
    {
        var client = factory.CreateClient("stock");
        return await client.GetFromJsonAsync<int>($"/api/stock/{id}");
    }
}
