namespace Mart.Payments.Tests;

public class BusTests
{
    [Fact]
    public void Publishes() => Assert.NotNull(new Mart.Bus.EventBus());
}
