//! `HttpClient` calls and an Aspire AppHost, read from one file.

use super::*;
use crate::model::ClientScope;
use crate::model::calls::IdentityKind;

fn read(src: &str) -> Facts {
    let mut f = Facts::default();
    extract(src, &mut f);
    f
}

fn edges(f: &Facts) -> Vec<String> {
    f.edges
        .iter()
        .map(|e| format!("{} {} {:?}", e.callee, e.via, e.client))
        .collect()
}

#[test]
fn only_receivers_that_are_http_clients_call() {
    let f = read(
        r#"public sealed class Orders(HttpClient http, IDistributedCache cache, IOrderRepository repo)
        {
            public async Task Run(int id)
            {
                await cache.GetAsync("k");
                await repo.DeleteAsync(id);
                await http.DeleteAsync($"http://orders/api/orders/{id}");
            }
        }"#,
    );
    assert_eq!(
        edges(&f),
        ["orders HttpClient.DeleteAsync (DELETE) in C# Some(\"AddHttpClient<Orders>\")"]
    );
}

#[test]
fn send_async_takes_the_request_message_method_and_url() {
    let f = read(
        r#"public static class Pay
        {
            public static Task Charge()
            {
                using var client = new HttpClient();
                var msg = new HttpRequestMessage(HttpMethod.Post, "https+http://payments/api/charges");
                return client.SendAsync(msg);
            }
        }"#,
    );
    // `new HttpClient()`: no client of the factory, so no handler.
    assert_eq!(
        edges(&f),
        ["payments HttpClient.SendAsync (POST) in C# None"]
    );
}

#[test]
fn a_registration_without_calls_in_the_file_is_the_edge() {
    let f = read(
        r#"builder.Services.AddHttpClient<BasketClient>(o => o.BaseAddress = new("https+http://basket-api"))
            .AddStandardResilienceHandler();"#,
    );
    assert_eq!(
        edges(&f),
        [
            "basket-api AddHttpClient<BasketClient> BaseAddress in C# Some(\"AddHttpClient<BasketClient>\")"
        ]
    );
    // The handler is the client's, and on the edge.
    assert_eq!(f.edges[0].policies, [0]);
    assert_eq!(
        f.policies[0].scope.client,
        Some(ClientScope::Named("AddHttpClient<BasketClient>".into()))
    );
}

#[test]
fn a_call_whose_base_address_is_elsewhere_is_left_with_its_client() {
    let f = read(
        r#"public class CatalogClient(HttpClient http)
        {
            public Task<Item?> Get(int id) => http.GetFromJsonAsync<Item>($"/api/items/{id}");
        }"#,
    );
    assert!(f.edges.is_empty());
    assert_eq!(f.unresolved.len(), 1);
    assert_eq!(
        f.unresolved[0].client.as_deref(),
        Some("AddHttpClient<CatalogClient>")
    );
}

#[test]
fn apphost_projects_resources_and_references() {
    let f = read(
        r#"var builder = DistributedApplication.CreateBuilder(args);
        var cache = builder.AddRedis("cache");
        var pg = builder.AddPostgres("pg");
        var db = pg.AddDatabase("ordersdb");
        var orders = builder.AddProject<Projects.Shop_Orders>("orders")
            .WithReference(db);
        builder.AddProject<Projects.Shop_Web>("web")
            .WithReference(cache)
            .WithReference(orders);
        builder.Build().Run();"#,
    );
    let decls: Vec<String> = f
        .services
        .iter()
        .map(|s| format!("{} {:?} {:?}", s.name, s.hosts, s.placement.protocol))
        .collect();
    assert_eq!(
        decls,
        [
            "cache [] Some(Redis)",
            "pg [] Some(Sql)",
            "ordersdb [] Some(Sql)",
            "orders [\"Shop_Orders\"] Some(Http)",
            "web [\"Shop_Web\"] Some(Http)",
        ]
    );
    assert!(f.services.iter().all(|s| s.kind == IdentityKind::AppHost));
    let mut refs: Vec<String> = f
        .edges
        .iter()
        .map(|e| format!("{} -> {}", e.caller.as_deref().unwrap_or("?"), e.callee))
        .collect();
    refs.sort();
    assert_eq!(
        refs,
        ["orders -> ordersdb", "web -> cache", "web -> orders"]
    );
}

#[test]
fn a_client_made_with_its_base_address() {
    let f = read(
        r#"public sealed class StatusClient
        {
            private static readonly HttpClient Http = new() { BaseAddress = new Uri("http://web") };

            public Task<string> StatusAsync() => Http.GetStringAsync("/status");
        }"#,
    );
    assert_eq!(
        edges(&f),
        ["web HttpClient.GetStringAsync (GET) in C# None"],
        "{:?}",
        f.unresolved
    );
}

#[test]
fn a_grpc_client_is_an_edge_to_its_address() {
    let f = read(
        r#"builder.Services.AddGrpcClient<Basket.BasketClient>(o => o.Address = new("http://basket-api"))
            .AddAuthToken();"#,
    );
    assert_eq!(
        edges(&f),
        [
            "basket-api AddGrpcClient<Basket.BasketClient> Address (gRPC) in C# Some(\"AddGrpcClient<Basket.BasketClient>\")"
        ]
    );
    // The address says `http://`; the edge speaks gRPC.
    assert_eq!(
        f.edges[0].protocol,
        Some(crate::model::calls::Protocol::Grpc)
    );
}

/// Service discovery's `_endpoint.service` host names the service
/// (abpframework/eShopOnAbp e075e82: `new Uri("http://_grpc.catalogService")`
/// was an edge to `_grpc`).
#[test]
fn a_named_endpoint_of_service_discovery_is_its_service() {
    let f = read(
        r#"services.AddGrpcClient<Catalog.CatalogClient>(o => o.Address = new Uri("http://_grpc.catalog-api"));"#,
    );
    assert_eq!(
        edges(&f),
        [
            "catalog-api AddGrpcClient<Catalog.CatalogClient> Address (gRPC) in C# Some(\"AddGrpcClient<Catalog.CatalogClient>\")"
        ]
    );
}

#[test]
fn a_refit_client_registered_with_its_base_address_is_the_edge() {
    // Refit.HttpClientFactory: `AddRefitClient<T>()` returns the client's
    // `IHttpClientBuilder`; its base address is set in `ConfigureHttpClient`.
    let f = read(
        r#"builder.Services.AddRefitClient<ICatalogApi>()
            .ConfigureHttpClient(c => c.BaseAddress = new Uri("http://catalog-api"))
            .AddStandardResilienceHandler();"#,
    );
    assert_eq!(
        edges(&f),
        [
            "catalog-api AddRefitClient<ICatalogApi> BaseAddress in C# Some(\"AddRefitClient<ICatalogApi>\")"
        ]
    );
    assert_eq!(f.edges[0].policies, [0]);
    assert_eq!(
        f.policies[0].scope.client,
        Some(ClientScope::Named("AddRefitClient<ICatalogApi>".into()))
    );
}

#[test]
fn a_typed_client_configured_after_its_registration_has_its_base_address() {
    let f = read(
        r#"services.AddHttpClient<IBasketClient, BasketClient>()
            .ConfigureHttpClient(c => { c.BaseAddress = new Uri("http://basket-api"); c.Timeout = TimeSpan.FromSeconds(5); })
            .AddStandardResilienceHandler();"#,
    );
    assert_eq!(
        edges(&f),
        [
            "basket-api AddHttpClient<BasketClient> BaseAddress in C# Some(\"AddHttpClient<BasketClient>\")"
        ]
    );
    assert_eq!(f.edges[0].policies, [0]);
}

#[test]
fn a_refit_rest_service_for_an_address_calls_it_with_no_factory_handler() {
    let f = read(
        r#"builder.Services.ConfigureHttpClientDefaults(http => http.AddStandardResilienceHandler());
        var orders = RestService.For<IOrdersApi>("http://orders-api:8080");
        var other = RestService.For<IOrdersApi>(http);"#,
    );
    assert_eq!(
        edges(&f),
        ["orders-api RestService.For<IOrdersApi> in C# None"]
    );
    // Refit makes its own `HttpClient`: no handler of the factory applies.
    assert!(f.edges[0].policies.is_empty());
}

#[test]
fn a_refit_client_over_an_injected_http_client_is_a_call_of_the_typed_client() {
    // A typed client that wraps a Refit interface around the client the
    // factory gives it; the base address is set in its constructor.
    let f = read(
        r#"public class CustomerApi : ICustomerApi
        {
            private readonly ICustomerApi _rest;
            public CustomerApi(HttpClient httpClient)
            {
                httpClient.BaseAddress = new Uri("http://customers-api/api");
                _rest = RestService.For<ICustomerApi>(httpClient, new RefitSettings());
            }
            public Task<List<Customer>> GetCustomers() => _rest.GetCustomers();
        }"#,
    );
    assert_eq!(
        edges(&f),
        ["customers-api RestService.For in C# Some(\"AddHttpClient<CustomerApi>\")"]
    );
    // Its base address set elsewhere: left with its client for the link.
    let f = read(
        r#"public class CustomerApi(HttpClient http)
        {
            private readonly ICustomerApi _rest = RestService.For<ICustomerApi>(http);
        }"#,
    );
    assert!(f.edges.is_empty());
    assert_eq!(f.unresolved.len(), 1);
    assert_eq!(
        f.unresolved[0].client.as_deref(),
        Some("AddHttpClient<CustomerApi>")
    );
}

#[test]
fn dapr_invocations_call_the_app_id() {
    // dotnet-architecture/eShopOnDapr's aggregator, and the DaprClient
    // methods that name an app id (after an optional `HttpMethod`).
    let f = read(
        r#"builder.Services.AddSingleton<IBasketService, BasketService>(
            _ => new BasketService(DaprClient.CreateInvokeHttpClient("basket-api")));
        public class OrderingService(DaprClient daprClient)
        {
            public Task<Order> Get(int id) =>
                daprClient.InvokeMethodAsync<Order>(HttpMethod.Get, "ordering-api", $"api/orders/{id}");
            public Task Cancel(int id) =>
                _daprClient.InvokeMethodAsync("ordering-api", "cancel", id);
            public Task<Stock> Stock() => daprClient.InvokeMethodGrpcAsync<Req, Stock>(appId: "inventory", methodName: "stock", data: new Req());
            public Task Other() => client.InvokeMethodAsync("not-dapr", "x");
            public Task Late(string app) => daprClient.InvokeMethodAsync(app, "x");
        }"#,
    );
    assert_eq!(
        edges(&f),
        [
            "basket-api Dapr service invocation `CreateInvokeHttpClient` in C# None",
            "ordering-api Dapr service invocation `InvokeMethodAsync` in C# None",
            "ordering-api Dapr service invocation `InvokeMethodAsync` in C# None",
            "inventory Dapr service invocation `InvokeMethodGrpcAsync` in C# None",
        ]
    );
    assert!(f.edges.iter().all(|e| e.policies.is_empty()));
}

/// A client of no registration whose address is an expression is not
/// waiting for a base address set elsewhere: the message says what is
/// not known (dotnet/eShopSupport's AppHost,
/// `client.GetFromJsonAsync<..>($"{httpEndpoint.Url}/api/tags")`).
#[test]
fn an_address_from_an_expression_is_named_as_not_known() {
    let f = read(
        r#"public static class Models
        {
            public static async Task Pull(EndpointReference httpEndpoint)
            {
                var client = new HttpClient();
                var tags = await client.GetFromJsonAsync<Tags>($"{httpEndpoint.Url}/api/tags");
                var version = await client.GetStringAsync("/api/version");
            }
        }"#,
    );
    let written: Vec<&str> = f.unresolved.iter().map(|u| u.written.as_str()).collect();
    assert_eq!(
        written,
        [
            "HttpClient.GetFromJsonAsync (GET) in C#, address `$\"{httpEndpoint.Url}/api/tags\"` not known here",
            "HttpClient.GetStringAsync (GET) in C#, base address not set in this file",
        ]
    );
}
