using System;
using System.Net;
using System.Net.Http;
using System.Threading.Tasks;

public class LedgerClient
{
    private readonly HttpClient _http;

    public LedgerClient(HttpClient http) => _http = http;

    // 429 and 5xx go round; any other answer is handed back.
    public async Task<HttpResponseMessage> BalanceAsync(string account)
    {
        for (var attempt = 1; attempt <= 4; attempt++)
        {
            var response = await _http.GetAsync($"http://ledger:8080/balances/{account}");
            if (response.StatusCode == HttpStatusCode.TooManyRequests || (int)response.StatusCode >= 500)
            {
                await Task.Delay(TimeSpan.FromMilliseconds(200 * attempt));
                continue;
            }
            return response;
        }
        throw new InvalidOperationException("ledger unavailable");
    }
}
