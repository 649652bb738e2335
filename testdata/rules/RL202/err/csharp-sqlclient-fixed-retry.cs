// Microsoft.Data.SqlClient's configurable retry logic with a fixed
// interval: five tries a second apart, however long the outage.
using Microsoft.Data.SqlClient;

var options = new SqlRetryLogicOption
{
    NumberOfTries = 5,
    DeltaTime = TimeSpan.FromSeconds(1),
    MaxTimeInterval = TimeSpan.FromSeconds(20),
};
var provider = SqlConfigurableRetryFactory.CreateFixedRetryProvider(options);
using var connection = new SqlConnection(connectionString) { RetryLogicProvider = provider };
