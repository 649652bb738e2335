// A library's call whose address the caller passes in (ivaylo-botusharov/UsaCensus):
// it runs in both programs that reference the library, not in the library.
public sealed class HttpClientWrapper(IHttpClientFactory factory)
{
    public async Task<T?> GetAsync<T>(string url)
    {
        HttpClient http = factory.CreateClient();
        return await http.GetFromJsonAsync<T>(url);
    }
}
