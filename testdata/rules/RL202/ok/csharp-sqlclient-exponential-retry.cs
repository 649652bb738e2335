using Microsoft.Data.SqlClient;

var options = new SqlRetryLogicOption
{
    NumberOfTries = 4,
    DeltaTime = TimeSpan.FromSeconds(1),
    MaxTimeInterval = TimeSpan.FromSeconds(20),
};
var provider = SqlConfigurableRetryFactory.CreateExponentialRetryProvider(options);
