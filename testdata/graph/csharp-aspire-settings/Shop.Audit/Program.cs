// The section of another DbContext type says nothing of this one's.
var builder = WebApplication.CreateBuilder(args);
builder.AddSqlServerDbContext<AuditDbContext>("auditdb");
builder.Build().Run();
