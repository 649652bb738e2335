using System;
using System.Net.Http;
using System.Threading.Tasks;

public class LedgerClient
{
    private readonly HttpClient _http;

    public LedgerClient(HttpClient http) => _http = http;

    // Leaves only on success: a 404 for an unknown account is asked again
    // like a 503.
    public async Task<string> BalanceAsync(string account)
    {
        for (var attempt = 1; attempt <= 4; attempt++)
        {
            var response = await _http.GetAsync($"http://ledger:8080/balances/{account}");
            if (response.IsSuccessStatusCode)
            {
                return await response.Content.ReadAsStringAsync();
            }
            await Task.Delay(TimeSpan.FromMilliseconds(200 * attempt));
        }
        throw new InvalidOperationException("ledger unavailable");
    }
}
