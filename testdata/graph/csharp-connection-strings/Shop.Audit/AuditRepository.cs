// A plain ADO.NET connection from the configuration's indexer.
public class AuditRepository(IConfiguration configuration)
{
    public async Task WriteAsync(AuditEntry entry)
    {
        await using var conn = new SqlConnection(configuration["ConnectionStrings:AuditDb"]);
        await conn.ExecuteAsync("insert into Audit values (@At, @What)", entry);
    }
}
