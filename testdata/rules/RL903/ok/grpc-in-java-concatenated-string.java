// Lines from grpc-java core/src/test/java/io/grpc/internal/ManagedChannelImplTest.java
// (grpc/grpc-java, Apache-2.0): service configs written as string pieces
// joined with `+`, which are valid JSON once joined.
package io.grpc.internal;

import java.util.Map;

public class ManagedChannelImplTest {

  public void channelsAndSubchannels_oobChannel_waitForReady() throws Exception {
    Map<String, Object> rawServiceConfig =
        parseConfig("{\"methodConfig\":[{"
            + "\"name\":[{\"service\":\"service\"}],"
            + "\"waitForReady\":true}]}");
    channelBuilder.defaultServiceConfig(rawServiceConfig);
  }

  public void enableServiceConfigLookUp_withDefaultConfig() throws Exception {
    Map<String, Object> defaultServiceConfig =
          parseConfig("{"
                  + "\"retryThrottling\":{\"maxTokens\": 1, \"tokenRatio\": 1},"
                  + "\"methodConfig\":[{"
                  + "\"name\":[{\"service\":\"SimpleService1\"}],"
                  + "\"waitForReady\":true"
                  + "}]}");
    channelBuilder.defaultServiceConfig(defaultServiceConfig);
  }

  private static Map<String, Object> parseConfig(String json) throws Exception {
    return (Map<String, Object>) JsonParser.parse(json);
  }
}
