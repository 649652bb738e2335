// SQLite is a file of this program, not a server.
var builder = WebApplication.CreateBuilder(args);
builder.Services.AddDbContext<CacheContext>(o =>
    o.UseSqlite(builder.Configuration.GetConnectionString("Cache")));
builder.Build().Run();
