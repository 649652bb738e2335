using Microsoft.Data.SqlClient;

// `NumberOfTries` counts every try: 0 throws when the provider is made.
var provider = SqlConfigurableRetryFactory.CreateIncrementalRetryProvider(new SqlRetryLogicOption
{
    NumberOfTries = 0,
    DeltaTime = TimeSpan.FromSeconds(2),
});
