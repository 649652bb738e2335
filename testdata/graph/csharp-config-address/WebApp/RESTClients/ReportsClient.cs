namespace WebApp.RESTClients;

// Registered with `Services:Reports` as its base address: this machine.
public class ReportsClient(HttpClient http)
{
    public Task<string> Daily() => http.GetStringAsync("/reports/daily");
}
