using Refit;

namespace WebApp.RESTClients;

public class CustomerApi : ICustomerApi
{
    private readonly ICustomerApi _rest;

    public CustomerApi(IConfiguration config, HttpClient httpClient)
    {
        string hostAndPort = config.GetSection("APIServiceLocations").GetValue<string>("CustomerAPI");
        httpClient.BaseAddress = new Uri($"http://{hostAndPort}/api");
        _rest = RestService.For<ICustomerApi>(httpClient);
    }

    public Task<List<Customer>> GetCustomers() => _rest.GetCustomers();
}
