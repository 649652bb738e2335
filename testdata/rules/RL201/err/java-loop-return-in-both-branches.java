// Success leaves through an if/else whose branches both return (apache/
// seatunnel Doris RestService.send): an `IOException` or an empty answer
// goes round at once.
import java.io.IOException;

class RestService {
    String send(Request request) {
        IOException ex = null;
        for (int attempt = 0; attempt < retries; attempt++) {
            try {
                String response = http.get(request.uri(), user, password);
                if (response == null || response.isEmpty()) {
                    log.warn("empty response from {}", request.uri());
                    continue;
                }
                Map map = MAPPER.readValue(response, Map.class);
                if (map.containsKey("code") && map.containsKey("msg")) {
                    return MAPPER.writeValueAsString(map.get("data"));
                } else {
                    return response;
                }
            } catch (IOException e) {
                ex = e;
                log.warn("request to {} failed", request.uri(), e);
            }
        }
        throw new IllegalStateException("request failed", ex);
    }
}
