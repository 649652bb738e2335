namespace Blocks.TestBase;

public class Fixture<TProgram> : WebApplicationFactory<TProgram> where TProgram : class
{
}
