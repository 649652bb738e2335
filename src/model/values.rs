//! Names a reader could not give a number for in its file, and where
//! another file may give it (issues 20 and 21): a Python constant
//! imported from another module, a Django setting, a Go package-level
//! constant of another file of the package, a Go struct field whose tag
//! gives its default, the version of a module the `go.mod` requires.
//! The link step `link::values` finds the value in
//! those files and reads the file again with it
//! (`crate::extract::values::with_given`).

kind_tagged! {
    "ValueWant";
    /// One name read as a number and not known in its file.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub enum ValueWant {
        /// Python: `key` (the name as the file reads it: `MAX_RETRIES`, or
        /// `config.MAX_RETRIES`) is the module-level name `name` of module
        /// `module`, as the import writes it (leading dots: relative to the
        /// file's package).
        PyModule {
            key: String,
            module: String,
            name: String,
        },
        /// Python: `settings.NAME` of `from django.conf import settings`, a
        /// name of the project's settings module.
        Django { key: String, name: String },
        /// Go: a name no declaration of the file binds, a package-level
        /// constant or variable of another file of the package.
        GoPackage { key: String, name: String },
        /// Go: a struct field (`cfg.RetryMax`) the file does not set, whose
        /// struct tag in the module gives its default (`default:"3"`,
        /// `envDefault:"3"`).
        GoField { key: String, field: String },
        /// Go: the version of module `module` the nearest `go.mod` above
        /// the file requires (`require github.com/cenkalti/backoff/v5
        /// v5.0.3`), given as `major x 1e6 + minor x 1e3 + patch`; a
        /// library whose default changed between versions reads it.
        GoModule { key: String, module: String },
        /// Python: option `option` (`max_retries`, `min_backoff`,
        /// `max_backoff`) of Dramatiq's `Retries` middleware as the
        /// project's broker sets it in some module
        /// (`broker.add_middleware(Retries(max_retries=3))`): what an
        /// actor that does not set the option gets.
        DramatiqBroker { key: String, option: String },
        /// Go: whether function `name` of the package `import` (a package
        /// of the file's own module) does only local work (reads files,
        /// parses certificates): given as 1 when it does.
        GoLocalFunc {
            key: String,
            import: String,
            name: String,
        },
        /// C#: `Class.Name` (`Constants.MaxRetries`), a number constant
        /// of a type the file does not declare, declared in another `.cs`
        /// file of the scan (`const int`, `static readonly double`).
        CsharpConstant {
            key: String,
            class: String,
            name: String,
        },
        /// Go: the fields function `name` of another file of the package
        /// sets on the sarama config it builds and returns (`cfg :=
        /// newConfig()`), each given under `name().Field`
        /// (`newConfig().Producer.Retry.Max`).
        GoConfigFunc { key: String, name: String },
    }
}

impl ValueWant {
    /// The name as the reader looks it up when the value is given.
    pub fn key(&self) -> &str {
        match self {
            ValueWant::PyModule { key, .. }
            | ValueWant::Django { key, .. }
            | ValueWant::GoPackage { key, .. }
            | ValueWant::GoField { key, .. }
            | ValueWant::DramatiqBroker { key, .. }
            | ValueWant::GoModule { key, .. }
            | ValueWant::GoLocalFunc { key, .. }
            | ValueWant::CsharpConstant { key, .. }
            | ValueWant::GoConfigFunc { key, .. } => key,
        }
    }
}
