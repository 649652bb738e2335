package authors;

import java.util.Map;
import org.springframework.web.client.RestTemplate;

public class AuthorResource {
    private final RestTemplate rest = new RestTemplate();

    // A profile: its links are data, shown to readers.
    public Author get() {
        Author author = new Author();
        author.name = "Ada Lovelace";
        author.twitter = "https://twitter.example.com/ada";
        author.blog = "http://ada.example.net";
        return author;
    }

    // Sample rows: a title, a URL, an author.
    void samples() {
        addArticle("Notes on the Analytical Engine", "https://ada.example.net/notes", "Ada Lovelace");
        Map<String, String> links = Map.of("github", "https://github.example.com/ada");
    }

    // Calls: a client's verb, and a base address in a field named for one.
    String books() {
        author.apiUrl = "https://books.example.org/v1";
        return rest.getForObject("http://books:8080/books", String.class);
    }

    void addArticle(String title, String url, String author) {}
}
