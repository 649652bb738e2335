// The platform library every service builds on; it brings the service
// defaults with it.
public static class Platform
{
    public static IHostApplicationBuilder AddPlatform(this IHostApplicationBuilder builder) => builder.AddServiceDefaults();
}
